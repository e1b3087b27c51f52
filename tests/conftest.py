"""Fixtures of every test folder: the throwaway PostgreSQL cluster of the storage tests
(``postgres_cluster``, started on first use; see ``tests/postgres_cluster.py``)."""

from postgres_cluster import postgres_cluster, pytest_terminal_summary

__all__ = ["postgres_cluster", "pytest_terminal_summary"]
