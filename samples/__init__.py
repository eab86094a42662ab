"""The bundled sample listings, shipped as package data (kg.samples)."""
