"""A software passkey for the server tests: what a browser and its authenticator send
in the two WebAuthn ceremonies (registration with ``none`` attestation, and an
assertion), made with an ES256 key, so that a test can answer the server's challenges,
replay an answer, and count signatures without a browser."""

from __future__ import annotations

import base64
import hashlib
import json
import os
import struct
from typing import Any

import cbor2
from cryptography.hazmat.primitives import hashes
from cryptography.hazmat.primitives.asymmetric import ec


def b64url(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode()


class SoftPasskey:
    """One passkey of one site (``origin``), on one authenticator."""

    def __init__(self, origin: str) -> None:
        self.origin = origin
        self.rp_id = origin.split("://")[1].split(":")[0]
        self.key = ec.generate_private_key(ec.SECP256R1())
        self.credential_id = os.urandom(16)
        self.user_handle = b""
        self.counter = 0

    @property
    def id(self) -> str:
        return b64url(self.credential_id)

    def _client_data(self, kind: str, challenge: str) -> bytes:
        return json.dumps(
            {"type": kind, "challenge": challenge, "origin": self.origin, "crossOrigin": False}
        ).encode()

    def _authenticator_data(self, flags: int, attested: bytes = b"") -> bytes:
        rp_id_hash = hashlib.sha256(self.rp_id.encode()).digest()
        return rp_id_hash + bytes([flags]) + struct.pack(">I", self.counter) + attested

    def register(self, options: dict[str, Any]) -> dict[str, Any]:
        """The browser's answer to ``navigator.credentials.create`` with ``options``."""
        self.user_handle = base64.urlsafe_b64decode(options["user"]["id"] + "==")
        numbers = self.key.public_key().public_numbers()
        cose_key = cbor2.dumps(
            {
                1: 2,
                3: -7,
                -1: 1,
                -2: numbers.x.to_bytes(32, "big"),
                -3: numbers.y.to_bytes(32, "big"),
            }
        )
        attested = bytes(16) + struct.pack(">H", len(self.credential_id)) + self.credential_id
        data = self._authenticator_data(0x45, attested + cose_key)  # user present, verified, AT
        attestation = cbor2.dumps({"fmt": "none", "attStmt": {}, "authData": data})
        return {
            "id": self.id,
            "rawId": self.id,
            "type": "public-key",
            "response": {
                "clientDataJSON": b64url(
                    self._client_data("webauthn.create", options["challenge"])
                ),
                "attestationObject": b64url(attestation),
            },
        }

    def sign(self, options: dict[str, Any]) -> dict[str, Any]:
        """The browser's answer to ``navigator.credentials.get`` with ``options``: a new
        signature, its counter one more."""
        self.counter += 1
        client_data = self._client_data("webauthn.get", options["challenge"])
        data = self._authenticator_data(0x05)  # user present, verified
        signature = self.key.sign(
            data + hashlib.sha256(client_data).digest(), ec.ECDSA(hashes.SHA256())
        )
        return {
            "id": self.id,
            "rawId": self.id,
            "type": "public-key",
            "response": {
                "clientDataJSON": b64url(client_data),
                "authenticatorData": b64url(data),
                "signature": b64url(signature),
                "userHandle": b64url(self.user_handle),
            },
        }
