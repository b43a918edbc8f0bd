"""The reference service: a FastAPI implementation of the whole interface (see ``create_app``)."""
