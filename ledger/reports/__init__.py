"""Renderings of read models for people and for other systems: CSV, JSON, HTML."""
