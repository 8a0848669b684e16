/**
 * Spill files on local disk: {@link dev.quiver.state.spill.FileSpillSpace} implements the
 * operators' {@link dev.quiver.operators.spill.SpillSpace} with Arrow IPC streams under the task's
 * temporary directories, compressed, counted, and deleted when the task ends however it ends.
 */
package dev.quiver.state.spill;
