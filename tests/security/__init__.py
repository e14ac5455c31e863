"""Regression tests for hostile input (issue 16): every way into the app is checked."""
