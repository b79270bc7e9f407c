"""Torides pure rules engine: dice and rule sets, no I/O.' > engine/__init__.py
echo 'Torides service layer, storage and front-ends."""
