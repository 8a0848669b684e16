package dev.quiver.sql;

import java.util.ArrayList;
import java.util.List;
import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rel.RelShuttleImpl;
import org.apache.calcite.rel.core.RelFactories;
import org.apache.calcite.rel.core.SetOp;
import org.apache.calcite.rel.logical.LogicalIntersect;
import org.apache.calcite.rel.logical.LogicalMinus;
import org.apache.calcite.rel.logical.LogicalUnion;
import org.apache.calcite.rel.type.RelDataTypeField;
import org.apache.calcite.sql.type.SqlTypeName;
import org.apache.calcite.tools.RelBuilder;

/**
 * Gives the untyped NULLs of set operation inputs the type of their column: {@code SELECT NULL AS
 * s_state ... UNION ALL SELECT s_state ...} (TPC-DS q27, q36) validates with Calcite's NULL type in
 * the first input, which no Quiver column has; a cast to the union's column type (folded into a
 * typed NULL literal by the projection below it) fixes that before anything else sees the plan.
 */
final class UntypedNulls extends RelShuttleImpl {
  @Override
  public RelNode visit(LogicalUnion union) {
    return typed(super.visit(union));
  }

  @Override
  public RelNode visit(LogicalIntersect intersect) {
    return typed(super.visit(intersect));
  }

  @Override
  public RelNode visit(LogicalMinus minus) {
    return typed(super.visit(minus));
  }

  private static RelNode typed(RelNode rel) {
    SetOp setOp = (SetOp) rel;
    List<RelNode> inputs = new ArrayList<>();
    boolean changed = false;
    for (RelNode input : setOp.getInputs()) {
      if (hasNullType(input)) {
        RelBuilder builder = RelFactories.LOGICAL_BUILDER.create(input.getCluster(), null);
        inputs.add(builder.push(input).convert(setOp.getRowType(), false).build());
        changed = true;
      } else {
        inputs.add(input);
      }
    }
    return changed ? setOp.copy(setOp.getTraitSet(), inputs, setOp.all) : setOp;
  }

  private static boolean hasNullType(RelNode rel) {
    for (RelDataTypeField field : rel.getRowType().getFieldList()) {
      if (field.getType().getSqlTypeName() == SqlTypeName.NULL) {
        return true;
      }
    }
    return false;
  }
}
