"""Identity and authority: credentials, signed commands, the door, the authority table."""
