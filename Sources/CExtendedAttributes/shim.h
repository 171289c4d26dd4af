/*
 * shim.h: the C library's extended-attribute calls (<sys/xattr.h>), which
 * Swift's Glibc module leaves out. The host reads and removes file
 * capabilities (`security.capability`) with them (System's PrivilegedFiles).
 */
#include <sys/xattr.h>
