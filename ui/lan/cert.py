"""The self-signed certificate for `sudokucam ui --lan`, made once and kept.

The key and certificate live in the user's config folder (`config_dir`). A kept
certificate is used again while it is valid for long enough, its key matches, and its
names are exactly this machine's addresses now; otherwise a new pair is made.
"""

from __future__ import annotations

import datetime as dt
import ipaddress
import os
import socket
import sys
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from cryptography import x509
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.x509.oid import NameOID

from ...errors import SudokucamError

APP_FOLDER = "sudokucam"
CERT_NAME = "lan-cert.pem"
KEY_NAME = "lan-key.pem"
KEY_MODE = 0o600  # the private key: readable by its owner only
CERT_MODE = 0o644  # the certificate is public
FOLDER_MODE = 0o700  # the config folder holds the key
LOCAL_NAME = "localhost"
LOOPBACK = ipaddress.ip_address("127.0.0.1")

IPAddress = ipaddress.IPv4Address | ipaddress.IPv6Address


class CertificateError(SudokucamError):
    """The certificate could not be made or written."""


@dataclass(frozen=True)
class CertConfig:
    """How long a certificate lasts and when a kept one is replaced."""

    valid_days: int = 397  # the longest browsers accept for a server certificate
    renew_days: int = 7  # a kept certificate with fewer days left is replaced
    backdate_minutes: int = 5  # valid from a little before now, for clocks slightly behind


DEFAULT_CERT_CONFIG = CertConfig()


@dataclass(frozen=True)
class CertFiles:
    """Where the certificate and its private key are."""

    cert: Path
    key: Path


def config_dir() -> Path:
    """The user's config folder for sudokucam (XDG on Linux, the platform's own elsewhere)."""
    if sys.platform == "win32":
        base = Path(os.environ.get("APPDATA") or Path.home() / "AppData" / "Roaming")
    elif sys.platform == "darwin":
        base = Path.home() / "Library" / "Application Support"
    else:
        xdg = os.environ.get("XDG_CONFIG_HOME", "")
        base = Path(xdg) if os.path.isabs(xdg) else Path.home() / ".config"
    return base / APP_FOLDER


def lan_addresses() -> tuple[IPAddress, ...]:
    """This machine's IPv4 addresses on its networks (no loopback, no link-local), sorted."""
    import psutil

    found: set[IPAddress] = set()
    for addresses in psutil.net_if_addrs().values():
        for address in addresses:
            if address.family == socket.AF_INET:
                ip = ipaddress.ip_address(address.address)
                if not (ip.is_loopback or ip.is_link_local or ip.is_unspecified):
                    found.add(ip)
    return tuple(sorted(found, key=int))


def ensure_certificate(
    folder: Path,
    addresses: Sequence[IPAddress],
    config: CertConfig = DEFAULT_CERT_CONFIG,
    now: dt.datetime | None = None,
) -> CertFiles:
    """The kept certificate for these addresses, or a new one written in its place."""
    now = now or dt.datetime.now(dt.UTC)
    files = CertFiles(folder / CERT_NAME, folder / KEY_NAME)
    wanted = frozenset([LOOPBACK, *addresses])
    if reusable(files, wanted, config, now):
        return files
    key = ec.generate_private_key(ec.SECP256R1())
    cert = make_certificate(key, wanted, config, now)
    try:
        folder.mkdir(mode=FOLDER_MODE, parents=True, exist_ok=True)
        write_private(files.key, key_pem(key), KEY_MODE)
        write_private(files.cert, cert.public_bytes(serialization.Encoding.PEM), CERT_MODE)
    except OSError as exc:
        raise CertificateError(f"cannot write the certificate in {folder}: {exc.strerror}") from exc
    return files


def reusable(
    files: CertFiles, wanted: frozenset[IPAddress], config: CertConfig, now: dt.datetime
) -> bool:
    """True when the kept pair is readable, matching, valid long enough, and names `wanted`."""
    try:
        cert = x509.load_pem_x509_certificate(files.cert.read_bytes())
        key = serialization.load_pem_private_key(files.key.read_bytes(), password=None)
    except (OSError, ValueError, TypeError):
        return False
    if cert.public_key() != key.public_key():
        return False
    left = cert.not_valid_after_utc - now
    if cert.not_valid_before_utc > now or left < dt.timedelta(days=config.renew_days):
        return False
    return certificate_addresses(cert) == wanted


def certificate_addresses(cert: x509.Certificate) -> frozenset[IPAddress]:
    """The IP addresses a certificate names."""
    try:
        names = cert.extensions.get_extension_for_class(x509.SubjectAlternativeName).value
    except x509.ExtensionNotFound:
        return frozenset()
    found = names.get_values_for_type(x509.IPAddress)
    return frozenset(ip for ip in found if isinstance(ip, IPAddress))


def make_certificate(
    key: ec.EllipticCurvePrivateKey,
    addresses: frozenset[IPAddress],
    config: CertConfig,
    now: dt.datetime,
) -> x509.Certificate:
    """A self-signed server certificate for localhost and `addresses`."""
    name = x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, "sudokucam on this network")])
    alt_names: list[x509.GeneralName] = [x509.DNSName(LOCAL_NAME)]
    alt_names += [x509.IPAddress(ip) for ip in sorted(addresses, key=int)]
    start = now - dt.timedelta(minutes=config.backdate_minutes)
    return (
        x509.CertificateBuilder()
        .subject_name(name)
        .issuer_name(name)
        .public_key(key.public_key())
        .serial_number(x509.random_serial_number())
        .not_valid_before(start)
        .not_valid_after(now + dt.timedelta(days=config.valid_days))
        .add_extension(x509.SubjectAlternativeName(alt_names), critical=False)
        .add_extension(x509.BasicConstraints(ca=False, path_length=None), critical=True)
        .add_extension(
            x509.ExtendedKeyUsage([x509.oid.ExtendedKeyUsageOID.SERVER_AUTH]), critical=False
        )
        .sign(key, hashes.SHA256())
    )


def key_pem(key: ec.EllipticCurvePrivateKey) -> bytes:
    """The private key as unencrypted PEM (PKCS #8)."""
    return key.private_bytes(
        serialization.Encoding.PEM,
        serialization.PrivateFormat.PKCS8,
        serialization.NoEncryption(),
    )


def write_private(path: Path, data: bytes, mode: int) -> None:
    """Write `data` to `path` with `mode` from the start, replacing any old file at once."""
    part = path.with_name(f".{path.name}.part")
    part.unlink(missing_ok=True)
    descriptor = os.open(part, os.O_WRONLY | os.O_CREAT | os.O_EXCL, mode)
    with os.fdopen(descriptor, "wb") as out:
        out.write(data)
    os.chmod(part, mode)  # the umask may have taken bits off
    os.replace(part, path)
