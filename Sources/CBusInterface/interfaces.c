#include "interfaces.h"

const GDBusInterfaceVTable *cbus_skeleton_vtable(gpointer skeleton) {
  return g_dbus_interface_skeleton_get_vtable(G_DBUS_INTERFACE_SKELETON(skeleton));
}
