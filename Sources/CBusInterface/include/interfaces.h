// What Swift needs of the generated skeletons (bus_interface.h) and cannot
// write itself: GObject's type-checking casts are macros.
#ifndef TRANSLATION_HOST_CBUSINTERFACE_INTERFACES_H
#define TRANSLATION_HOST_CBUSINTERFACE_INTERFACES_H

#include <gio/gio.h>

/// The generated dispatch of `skeleton` (a CBusTranslation1 or
/// CBusPortalRequest skeleton): its method_call emits the method's
/// `handle-*` signal with the arguments unpacked (or answers UnknownMethod
/// when nothing handles it), its get_property reads the skeleton's GObject
/// property. Owned by the skeleton's class; lives as long as the process.
const GDBusInterfaceVTable *cbus_skeleton_vtable(gpointer skeleton);

#endif
