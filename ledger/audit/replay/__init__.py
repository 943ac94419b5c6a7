"""One round replayed from its stored events, checked independently and proven against the
hash chains and the seal; its evidence bundle; and game recall, a table's last rounds."""
