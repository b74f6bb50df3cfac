"""`companion serve --https`: a self-signed certificate, made once and kept with the data.

Why: a phone opens the table at http://<laptop's LAN address>, which browsers don't treat as a
secure context, so the real Wake Lock, the clipboard and installing the app are off (the page has
fallbacks for the first two). Over https they are on; the price is a one-time warning on each phone,
since no authority vouches for a certificate the laptop made itself (the README explains it).

The certificate names the addresses the QR code uses (the LAN address, localhost, 127.0.0.1, the
computer's name). It is made again only when the LAN address it must name isn't in it (the laptop
moved to another network) or it is about to expire; then each phone sees the warning once more.
"""

from __future__ import annotations

import datetime as dt
import ipaddress
import socket
from pathlib import Path

VALID_DAYS = 3650
RENEW_BEFORE_DAYS = 30


def certificate_folder(db_path: Path | None) -> Path:
    """Beside the save (companion.sqlite → companion-tls/), or in the app's data folder."""
    if db_path is not None:
        return db_path.with_name(f"{db_path.stem}-tls")
    from platformdirs import user_data_dir

    return Path(user_data_dir("table-companion", appauthor=False)) / "tls"


def _names(host: str) -> tuple[list[str], list[str]]:
    dns = sorted({"localhost", socket.gethostname().lower()} - {""})
    ips = {"127.0.0.1"}
    try:
        ips.add(str(ipaddress.ip_address(host)))
    except ValueError:
        dns = sorted(set(dns) | {host.lower()})
    return dns, sorted(ips)


def ensure_certificate(folder: Path, host: str) -> tuple[Path, Path]:
    """(certificate, key) files for `host`: the kept ones when they still fit, else new ones."""
    cert_path, key_path = folder / "cert.pem", folder / "key.pem"
    if cert_path.exists() and key_path.exists() and _fits(cert_path, host):
        return cert_path, key_path
    folder.mkdir(parents=True, exist_ok=True)
    _make(cert_path, key_path, host)
    return cert_path, key_path


def _fits(cert_path: Path, host: str) -> bool:
    from cryptography import x509

    try:
        cert = x509.load_pem_x509_certificate(cert_path.read_bytes())
        names = cert.extensions.get_extension_for_class(x509.SubjectAlternativeName).value
    except Exception:  # unreadable or foreign: make a new one
        return False
    wanted_dns, wanted_ips = _names(host)
    have_dns = set(names.get_values_for_type(x509.DNSName))
    have_ips = {str(ip) for ip in names.get_values_for_type(x509.IPAddress)}
    soon = dt.datetime.now(dt.timezone.utc) + dt.timedelta(days=RENEW_BEFORE_DAYS)
    return set(wanted_ips) <= have_ips and set(wanted_dns) <= have_dns and cert.not_valid_after_utc > soon


def _make(cert_path: Path, key_path: Path, host: str) -> None:
    from cryptography import x509
    from cryptography.hazmat.primitives import hashes, serialization
    from cryptography.hazmat.primitives.asymmetric import ec
    from cryptography.x509.oid import NameOID

    key = ec.generate_private_key(ec.SECP256R1())
    dns, ips = _names(host)
    name = x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, "Table Companion"),
                      x509.NameAttribute(NameOID.ORGANIZATION_NAME, "Table Companion (self-signed)")])
    now = dt.datetime.now(dt.timezone.utc)
    cert = (
        x509.CertificateBuilder().subject_name(name).issuer_name(name).public_key(key.public_key())
        .serial_number(x509.random_serial_number())
        .not_valid_before(now - dt.timedelta(minutes=5)).not_valid_after(now + dt.timedelta(days=VALID_DAYS))
        .add_extension(x509.SubjectAlternativeName([*map(x509.DNSName, dns),
                                                    *(x509.IPAddress(ipaddress.ip_address(i)) for i in ips)]),
                       critical=False)
        .add_extension(x509.BasicConstraints(ca=False, path_length=None), critical=True)
        .add_extension(x509.ExtendedKeyUsage([x509.oid.ExtendedKeyUsageOID.SERVER_AUTH]), critical=False)
        .sign(key, hashes.SHA256())
    )
    key_path.write_bytes(key.private_bytes(serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8,
                                           serialization.NoEncryption()))
    key_path.chmod(0o600)  # the key stays the host's
    cert_path.write_bytes(cert.public_bytes(serialization.Encoding.PEM))
