"""Offline retrieval-quality evaluation on BEIR-format datasets (`manage.py eval`)."""
