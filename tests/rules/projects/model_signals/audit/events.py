"""The project's own signals, sent where a document is consumed."""
from django.dispatch import Signal

document_consumed = Signal()
document_updated = Signal()
cache_cleared = Signal()
note_submitted = Signal()
