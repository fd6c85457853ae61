"""HTTP mode: three FastAPI apps (main, secure, pci) over one engine. Thin: parse, call, serialise."""
