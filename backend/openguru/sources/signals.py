"""What a source's life tells the layers above it, which sources do not import: answers and
evaluation connect their receivers when their apps are ready (`answers/receivers.py`,
`evaluation/receivers.py`)."""

from django.dispatch import Signal

# `source_ids`: sources whose chunks changed or that were deleted; answers citing them are stale.
sources_changed = Signal()
# `source` (a DataSource that reached SUCCESS) and `changed` (whether its chunks changed); sent
# inside the transaction that records the success, so receivers defer their sends to its commit.
source_indexed = Signal()
