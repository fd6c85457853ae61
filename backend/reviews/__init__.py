"""Guests' reviews of their stays, the property's answers and scores (reference §8)."""
