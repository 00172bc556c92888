"""The HTTP service: a Litestar app over a loaded index (see ``create_app``)."""
