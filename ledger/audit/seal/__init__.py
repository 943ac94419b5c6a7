"""The sealer: it extends the log's tree over every new event, signs a checkpoint and has the
witnesses cosign it; and its state, checked against its stored leaves and rebuilt from them."""
