"""Table state: what a pit boss sees of each table, its round and its shoe."""
