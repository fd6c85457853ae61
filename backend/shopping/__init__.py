"""The real-time shopping API of meta channels: what a channel may sell, read live."""
