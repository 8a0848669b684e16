package dev.quiver.testing;

import dev.quiver.operators.memory.Allocators;
import org.apache.arrow.memory.BufferAllocator;
import org.junit.jupiter.api.extension.AfterEachCallback;
import org.junit.jupiter.api.extension.BeforeEachCallback;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.jupiter.api.extension.ParameterContext;
import org.junit.jupiter.api.extension.ParameterResolutionException;
import org.junit.jupiter.api.extension.ParameterResolver;

/**
 * Fails any test that leaves Arrow memory allocated.
 *
 * <p>Register it with {@code @ExtendWith(ArrowLeakCheck.class)}. A test may take a {@link
 * BufferAllocator} parameter: it gets a fresh child of the JVM root that is closed after the test
 * (closing fails if the test leaked through it). After every test the root's allocated bytes and
 * its open child allocators must be back to what they were before the test — which also catches
 * leaks inside Flink tasks of a MiniCluster running in this JVM.
 */
public final class ArrowLeakCheck
    implements BeforeEachCallback, AfterEachCallback, ParameterResolver {
  private static final ExtensionContext.Namespace NAMESPACE =
      ExtensionContext.Namespace.create(ArrowLeakCheck.class);

  @Override
  public void beforeEach(ExtensionContext context) {
    BufferAllocator root = Allocators.root();
    store(context).put("bytes", root.getAllocatedMemory());
    store(context).put("children", root.getChildAllocators().size());
  }

  @Override
  public void afterEach(ExtensionContext context) {
    BufferAllocator testAllocator = store(context).remove("allocator", BufferAllocator.class);
    if (testAllocator != null) {
      testAllocator.close(); // throws IllegalStateException with the accounting report on a leak
    }
    BufferAllocator root = Allocators.root();
    long bytesBefore = store(context).get("bytes", Long.class);
    int childrenBefore = store(context).get("children", Integer.class);
    long bytes = root.getAllocatedMemory();
    int children = root.getChildAllocators().size();
    if (bytes != bytesBefore || children != childrenBefore) {
      throw new AssertionError(
          "Arrow memory leaked by "
              + context.getDisplayName()
              + ": "
              + (bytes - bytesBefore)
              + " bytes, "
              + (children - childrenBefore)
              + " open child allocators\n"
              + root.toVerboseString());
    }
  }

  @Override
  public boolean supportsParameter(ParameterContext parameter, ExtensionContext context) {
    return parameter.getParameter().getType() == BufferAllocator.class;
  }

  @Override
  public Object resolveParameter(ParameterContext parameter, ExtensionContext context)
      throws ParameterResolutionException {
    return store(context)
        .getOrComputeIfAbsent(
            "allocator",
            key -> Allocators.newChild("test:" + context.getDisplayName()),
            BufferAllocator.class);
  }

  private static ExtensionContext.Store store(ExtensionContext context) {
    return context.getStore(NAMESPACE);
  }
}
