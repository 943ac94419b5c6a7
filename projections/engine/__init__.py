"""What every projection is and how it runs: the handlers and the set-based folds, the runner
and its positions, versions, and the rebuild beside the live tables."""
