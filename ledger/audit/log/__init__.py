"""The transparency log's parts: each event's leaf, the Merkle tree over the global order and
its tiles, signed notes and checkpoints as C2SP writes them, and the trust file that says from
outside the database whose signatures count."""
