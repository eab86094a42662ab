"""Reading sources: files as lines and paragraphs, the format registry, records, free-text facts."""
