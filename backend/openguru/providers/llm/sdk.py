"""What the LLMs behind an HTTP API share: where the API is, its key, the model and the client's
limits, and the SDK's clients, one per event loop (`loop_clients.py`)."""

from typing import Generic

from openguru.providers.llm.loop_clients import Client, PerLoopClients


class SdkLLM(Generic[Client]):
    """A subclass says how to open (`_new_client`) and close (`_close_client`) its SDK's client."""

    def __init__(
        self,
        *,
        api_key: str,
        base_url: str | None,
        model: str,
        timeout: float = 60.0,
        max_retries: int = 1,
    ) -> None:
        self._api_key = api_key
        self._base_url = base_url
        self._model = model
        self._timeout = timeout
        self._max_retries = max_retries
        self._clients: PerLoopClients[Client] = PerLoopClients(self._new_client, self._close_client)

    def __repr__(self) -> str:  # never the key
        return f"{type(self).__name__}(model={self._model!r}, base_url={self._base_url!r})"

    @property
    def model(self) -> str:
        return self._model

    def _new_client(self) -> Client:
        raise NotImplementedError

    async def _close_client(self, client: Client) -> None:
        raise NotImplementedError
