"""Personal API keys for the signed-in user: create (the key is shown once), list, revoke."""

from typing import Any

from django.contrib.auth.models import User
from rest_framework import serializers, status
from rest_framework.authentication import SessionAuthentication
from rest_framework.permissions import IsAuthenticated
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from openguru.core.auth import AdminTokenAuthentication, AdminTokenUser
from openguru.integrations.models import APIKey
from openguru.integrations.selectors import api_key_list
from openguru.integrations.services import admin_token_owner, api_key_create, api_key_delete


def _owner(request: Request) -> User:
    if isinstance(request.user, AdminTokenUser):
        return admin_token_owner()
    user: User = request.user  # type: ignore[assignment]
    return user


class APIKeyOutput(serializers.ModelSerializer):
    class Meta:
        model = APIKey
        fields = ["id", "name", "prefix", "created_at", "last_used_at"]


class APIKeyCreatedOutput(APIKeyOutput):
    key = serializers.CharField(help_text="The whole key. Shown once: store it now.")

    class Meta(APIKeyOutput.Meta):
        fields = [*APIKeyOutput.Meta.fields, "key"]


class _SignedIn(APIView):
    # A key cannot mint or list keys: only a person signed in (or the admin token) can.
    authentication_classes = [AdminTokenAuthentication, SessionAuthentication]
    permission_classes = [IsAuthenticated]


class APIKeyListApi(_SignedIn):
    class InputSerializer(serializers.Serializer):
        name = serializers.CharField(max_length=100)

    def get(self, request: Request) -> Response:
        return Response(APIKeyOutput(api_key_list(user=_owner(request)), many=True).data)

    def post(self, request: Request) -> Response:
        data = self.InputSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        key, raw = api_key_create(user=_owner(request), name=data.validated_data["name"])
        body: dict[str, Any] = {**APIKeyOutput(key).data, "key": raw}
        return Response(body, status=status.HTTP_201_CREATED)

    class DeleteSerializer(serializers.Serializer):
        id = serializers.IntegerField()

    def delete(self, request: Request) -> Response:
        """Gurubase's form: the key's id in the body."""
        data = self.DeleteSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        api_key_delete(user=_owner(request), key_id=data.validated_data["id"])
        return Response(status=status.HTTP_204_NO_CONTENT)


class APIKeyDetailApi(_SignedIn):
    def delete(self, request: Request, key_id: int) -> Response:
        api_key_delete(user=_owner(request), key_id=key_id)
        return Response(status=status.HTTP_204_NO_CONTENT)
