/*
 * entry_point_call.h: the one call the SDK makes in Swift's own calling
 * convention, which Swift code cannot spell: a class's allocating `init()`,
 * found in the provider's symbol table, takes the class's metadata in the
 * register Swift keeps for `self` (clang's swift_context parameter). Used by
 * EntryPointFactory to create an iOS-style `@main` class entry point.
 */
#ifndef TP_ENTRY_POINT_CALL_H
#define TP_ENTRY_POINT_CALL_H

typedef void *(*tp_allocating_initializer)(const void *__attribute__((swift_context)) metadata)
    __attribute__((swiftcall));

/* Calls `initializer`, the allocating `init()` of the class whose metadata
 * is `metadata`; returns the new instance, retained (+1). */
static inline void *tp_call_allocating_initializer(const void *initializer, const void *metadata) {
  return ((tp_allocating_initializer)initializer)(metadata);
}

/* The file and load address of the loaded object that contains `address`
 * (dladdr, which Swift's Glibc module does not show). Returns 0 if none. */
__attribute__((visibility("hidden"))) int tp_image_containing(const void *address, const char **path, void **base);

#endif
