"""`serve --https`: the self-signed certificate is made once, kept with the data, names the address
the QR code uses, and is made again only when that address changes."""

from __future__ import annotations

from cryptography import x509

from companion.tls import certificate_folder, ensure_certificate


def names(cert_path) -> tuple[set, set]:
    cert = x509.load_pem_x509_certificate(cert_path.read_bytes())
    san = cert.extensions.get_extension_for_class(x509.SubjectAlternativeName).value
    return set(san.get_values_for_type(x509.DNSName)), {str(i) for i in san.get_values_for_type(x509.IPAddress)}


def test_made_once_kept_with_the_save_and_renewed_for_a_new_address(tmp_path):
    folder = certificate_folder(tmp_path / "companion.sqlite")
    assert folder == tmp_path / "companion-tls"
    cert, key = ensure_certificate(folder, "192.168.1.20")
    dns, ips = names(cert)
    assert {"192.168.1.20", "127.0.0.1"} <= ips and "localhost" in dns
    assert key.stat().st_mode & 0o077 == 0  # the key is the host's alone
    first = cert.read_bytes()
    assert ensure_certificate(folder, "192.168.1.20")[0].read_bytes() == first  # kept: no new warning on phones
    ensure_certificate(folder, "10.0.0.7")  # the laptop joined another network
    assert "10.0.0.7" in names(cert)[1] and cert.read_bytes() != first


def test_a_damaged_certificate_is_made_again(tmp_path):
    cert, _ = ensure_certificate(tmp_path, "table.test")
    cert.write_text("not a certificate")
    cert, _ = ensure_certificate(tmp_path, "table.test")
    assert "table.test" in names(cert)[0]
