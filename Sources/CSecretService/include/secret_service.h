/*
 * secret_service.h: a provider's secret settings in the user's Secret
 * Service keyring (gnome-keyring, KeePassXC, …) through libsecret, which is
 * loaded with dlopen only when a secret is stored or read: nothing that
 * never touches a secret loads GLib's D-Bus stack or waits for it.
 *
 * Each secret is keyed by the provider's identifier, the key its identifier
 * is pinned to ("unsigned" when none) and the setting's key, under the
 * schema "org.translationhost.ProviderSetting". Every call returns 0 on
 * success, 1 when the secret does not exist (lookup, clear), and -1 with
 * `message` (NUL-terminated, at most `size` bytes) saying why.
 */
#ifndef SECRET_SERVICE_H
#define SECRET_SERVICE_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

int tp_secret_store(const char *identifier, const char *signer, const char *setting, const char *label,
                    const char *value, char *message, size_t size);

/* On success `*value` is a copy to free with free(). */
int tp_secret_lookup(const char *identifier, const char *signer, const char *setting, char **value, char *message,
                     size_t size);

int tp_secret_clear(const char *identifier, const char *signer, const char *setting, char *message, size_t size);

#ifdef __cplusplus
}
#endif

#endif
