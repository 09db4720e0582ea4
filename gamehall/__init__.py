"""Client-side Python for gamehall: :mod:`gamehall.client`, a typed async client of the API."""
