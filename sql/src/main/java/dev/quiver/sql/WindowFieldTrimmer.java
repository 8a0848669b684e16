package dev.quiver.sql;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rel.logical.LogicalTableFunctionScan;
import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.rel.type.RelDataTypeField;
import org.apache.calcite.rex.RexBuilder;
import org.apache.calcite.rex.RexCall;
import org.apache.calcite.rex.RexInputRef;
import org.apache.calcite.rex.RexNode;
import org.apache.calcite.sql.SqlWindowTableFunction;
import org.apache.calcite.sql2rel.RelFieldTrimmer;
import org.apache.calcite.tools.RelBuilder;
import org.apache.calcite.util.ImmutableBitSet;
import org.apache.calcite.util.mapping.Mapping;
import org.apache.calcite.util.mapping.MappingType;
import org.apache.calcite.util.mapping.Mappings;

/**
 * Calcite's field trimmer, which also trims through the window table functions (TUMBLE, HOP,
 * CUMULATE). Calcite's own keeps every column of a table function's input, so a windowed query over
 * a wide table read (and, for HOP and CUMULATE, copied once per window) every column of it: here
 * the input keeps only the columns used above the function and its time column.
 *
 * <pre>
 *   Project[auction, window_end]                 Project[auction, window_end]
 *     HOP(TABLE bid, DESCRIPTOR(dateTime), ...)    HOP(TABLE ..., DESCRIPTOR(dateTime), ...)
 *       Scan bid [7 columns]                ⇒       Scan bid [auction, dateTime]
 * </pre>
 *
 * Public only because Calcite's trimmer finds its {@code trimFields} methods by reflection.
 */
public final class WindowFieldTrimmer extends RelFieldTrimmer {
  WindowFieldTrimmer(RelBuilder builder) {
    super(null, builder);
  }

  /** Called by the trimmer's dispatcher (by reflection) for every table function scan. */
  public TrimResult trimFields(
      LogicalTableFunctionScan scan,
      ImmutableBitSet fieldsUsed,
      Set<RelDataTypeField> extraFields) {
    if (scan.getInputs().size() != 1
        || !(scan.getCall() instanceof RexCall call)
        || !(call.getOperator() instanceof SqlWindowTableFunction)
        || call.getOperands().isEmpty()
        || !(call.getOperands().get(0) instanceof RexCall descriptor)
        || descriptor.getOperands().size() != 1
        || !(descriptor.getOperands().get(0) instanceof RexInputRef time)) {
      return trimFields((RelNode) scan, fieldsUsed, extraFields);
    }
    RelNode input = scan.getInputs().get(0);
    int inputColumns = input.getRowType().getFieldCount();
    int columns = scan.getRowType().getFieldCount(); // the input's, then the window's bounds
    ImmutableBitSet inputUsed =
        fieldsUsed.intersect(ImmutableBitSet.range(0, inputColumns)).set(time.getIndex());
    TrimResult trimmed = trimChild(scan, input, inputUsed, extraFields);
    RelNode newInput = trimmed.left;
    Mapping inputMapping = trimmed.right;
    int newInputColumns = newInput.getRowType().getFieldCount();
    if (newInputColumns == inputColumns) {
      return trimFields((RelNode) scan, fieldsUsed, extraFields);
    }
    RexBuilder rex = scan.getCluster().getRexBuilder();
    List<RelDataTypeField> fields = new ArrayList<>(newInput.getRowType().getFieldList());
    fields.addAll(scan.getRowType().getFieldList().subList(inputColumns, columns));
    RelDataType rowType = scan.getCluster().getTypeFactory().createStructType(fields);
    List<RexNode> operands = new ArrayList<>(call.getOperands());
    operands.set(
        0,
        rex.makeCall(
            descriptor.getType(),
            descriptor.getOperator(),
            List.of(new RexInputRef(inputMapping.getTarget(time.getIndex()), time.getType()))));
    RexNode newCall = rex.makeCall(rowType, call.getOperator(), operands);
    RelNode newScan =
        LogicalTableFunctionScan.create(
            scan.getCluster(), List.of(newInput), newCall, scan.getElementType(), rowType, null);
    Mapping mapping =
        Mappings.create(
            MappingType.INVERSE_SURJECTION, columns, newInputColumns + columns - inputColumns);
    for (int c = 0; c < inputColumns; c++) {
      int target = inputMapping.getTargetOpt(c);
      if (target >= 0) {
        mapping.set(c, target);
      }
    }
    for (int c = inputColumns; c < columns; c++) {
      mapping.set(c, newInputColumns + c - inputColumns);
    }
    return result(newScan, mapping);
  }
}
