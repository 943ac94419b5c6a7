"""The application: the one door commands go through, their handlers, the writer that
records them, the settings and the wire reader."""
