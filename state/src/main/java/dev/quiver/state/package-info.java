/**
 * Where a task's operators put what does not fit in their memory budget: spill files of Arrow
 * record batches. Operators decide when to spill (they own the policy); this module owns the
 * storage, its cleanup and its accounting.
 */
package dev.quiver.state;
