"""Toride's service layer, storage and front-ends (console, Discord)."""
