"""Stores pydantic events as their JSON, byte for byte what `model_dump_json` writes."""

from __future__ import annotations

from typing import Any

from eventsourcing.persistence import Mapper, StoredEvent
from eventsourcing.utils import get_topic, resolve_topic
from pydantic import BaseModel


class PydanticJSONMapper(Mapper[Any]):
    """No compression, no cipher: an auditor reads `convert_from(state, 'UTF8')` in psql."""

    def to_stored_event(self, domain_event: Any) -> StoredEvent:
        model: BaseModel = domain_event
        return StoredEvent(
            originator_id=domain_event.originator_id,
            originator_version=domain_event.originator_version,
            topic=get_topic(type(domain_event)),
            state=model.model_dump_json().encode("utf-8"),
        )

    def to_domain_event(self, stored: StoredEvent) -> Any:
        event_class = resolve_topic(stored.topic)
        return event_class.model_validate_json(stored.state)
