// The generated interface descriptions (bus_interface.h), for Swift: GDBus
// takes them as mutable pointers, and Swift cannot take the address of a C
// constant. They live as long as the process; never freed.
#ifndef TRANSLATION_HOST_CBUSINTERFACE_INTERFACES_H
#define TRANSLATION_HOST_CBUSINTERFACE_INTERFACES_H

#include <gio/gio.h>

/// org.translationhost.Translation1.
GDBusInterfaceInfo *cbus_translation1_interface(void);

/// org.freedesktop.portal.Request (Present's request objects).
GDBusInterfaceInfo *cbus_request_interface(void);

#endif
