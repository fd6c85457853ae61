"""Properties: the list, the property editor and a property's channels."""
