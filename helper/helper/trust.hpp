// trust.hpp: `roomkey-helper trust` / `untrust`: add or remove the local CA
// in the NSS databases Chromium (~/.pki/nssdb) and Firefox profiles read,
// with certutil from libnss3-tools (what mkcert does on Linux), and in the
// system store (TrustOptions::system_store, update-ca-certificates) that
// WebKitGTK (Epiphany, MiniBrowser) reads through GnuTLS, when the user may
// write there; otherwise it prints the commands an administrator runs.
#pragma once

#include <string>
#include <vector>

#include "helper/options.hpp"

namespace roomkey::helper {

// "roomkey local CA <first 8 bytes of the SHA-256 fingerprint, hex>": a renewed CA
// gets a new nickname, so untrust can find every one we added.
std::string nss_nickname(const std::string& ca_cert_path);

// The NSS databases to touch: --nssdb, else ~/.pki/nssdb plus each Firefox
// profile that has a cert9.db, under ~/.config/mozilla/firefox (ESR 153+,
// $XDG_CONFIG_HOME when set), ~/.mozilla/firefox (ESR 140 and older) and
// ~/snap/firefox/common/.mozilla/firefox (the snap).
std::vector<std::string> nss_databases(const TrustOptions& options);

// Those of nss_databases(options) that do not hold this CA yet (a missing
// database included: trust would create it), i.e. where `trust` would add
// it. Every one of them when certutil is missing. Empty: trusted everywhere.
std::vector<std::string> nss_databases_without_ca(const std::string& ca_cert_path, const TrustOptions& options);

// Runs trust (add = true) or untrust; prints what it did; returns the exit code.
int run_trust(const TrustOptions& options, bool add);

}  // namespace roomkey::helper
