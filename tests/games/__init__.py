"""Games that exist only for the tests (registered by tests/conftest.py, never in the product)."""
