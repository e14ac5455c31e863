"""Hand entry, scoring through the rules engine, and standings."""
