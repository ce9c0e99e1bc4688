"""The records side of the engine: the document registry, the database seam (SQLite or PostgreSQL), locks and gc."""
