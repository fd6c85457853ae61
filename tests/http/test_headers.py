"""Headers every answer carries: JSON answers (which on the secure listener hold card data) are neither cached
nor sniffed, routes that say otherwise keep their own, and a listener on TLS asks for TLS from then on."""

from __future__ import annotations

import datetime
import ipaddress

import httpx
from cryptography import x509
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.x509.oid import NameOID

from backend.properties.media import Fetched
from tests.conftest import LiveServer, free_port

PNG = bytes.fromhex("89504e470d0a1a0a0000000d4948445200000001000000010806000000"
                    "1f15c4890000000d49444154789c63f8cfc0f01f0005000201a5e1a4f30000000049454e44ae426082")


def test_json_answers_are_never_cached_nor_sniffed_and_other_routes_keep_their_own(user, anonymous, live_engine):
    with live_engine.store.transaction() as conn:
        media_id = live_engine.media.insert(conn, Fetched("image/png", PNG, "http://example.com/logo.png"))

    for response in (user.client.get("/api/v1/properties"), anonymous.get("/api/v1/properties"),
                     anonymous.get("/api/v1/nothing-here"), anonymous.get("/openapi.json")):
        assert response.headers["content-type"] == "application/json"
        assert response.headers["cache-control"] == "no-store"
        assert response.headers["x-content-type-options"] == "nosniff"
        assert "strict-transport-security" not in response.headers  # plain HTTP
    media = anonymous.get(f"/api/v1/media/{media_id}")
    chat_page = anonymous.get("/chat")
    assert media.headers["cache-control"] == "public, max-age=86400"
    assert chat_page.headers["cache-control"] == "no-store" and "frame-ancestors" in chat_page.headers[
        "content-security-policy"]


def test_a_listener_on_tls_sends_hsts(engine, tmp_path):
    certfile, keyfile = _self_signed(tmp_path)
    with LiveServer(engine, "secure", free_port(), ssl_certfile=str(certfile), ssl_keyfile=str(keyfile)) as server:
        response = httpx.get(f"{server.url}/api/v1/health", verify=False)

    assert response.headers["strict-transport-security"] == "max-age=31536000"
    assert response.headers["cache-control"] == "no-store"


def _self_signed(folder):
    key = ec.generate_private_key(ec.SECP256R1())
    name = x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, "127.0.0.1")])
    now = datetime.datetime.now(datetime.UTC)
    cert = (x509.CertificateBuilder().subject_name(name).issuer_name(name).public_key(key.public_key())
            .serial_number(x509.random_serial_number()).not_valid_before(now)
            .not_valid_after(now + datetime.timedelta(days=1))
            .add_extension(x509.SubjectAlternativeName([x509.IPAddress(ipaddress.ip_address("127.0.0.1"))]), False)
            .sign(key, hashes.SHA256()))
    certfile, keyfile = folder / "cert.pem", folder / "key.pem"
    certfile.write_bytes(cert.public_bytes(serialization.Encoding.PEM))
    keyfile.write_bytes(key.private_bytes(serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8,
                                          serialization.NoEncryption()))
    return certfile, keyfile
