"""The words the ledger speaks (codes as people say them) and safe terminal markup."""
