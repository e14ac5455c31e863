"""The project's configuration: settings, root URLs, WSGI, middleware, logging, the cache
backend.  It sits on top of the apps and may import any of them; no app imports it."""
