package dev.quiver.flink.kafka;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.JsonToken;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.HashMap;
import java.util.Map;
import org.apache.arrow.vector.BigIntVector;
import org.apache.arrow.vector.IntVector;
import org.apache.arrow.vector.TimeStampMicroVector;
import org.apache.arrow.vector.types.pojo.Schema;

/**
 * Decodes a JSON object per value with Jackson's streaming parser, writing each known key's value
 * into its column's vector as it is parsed.
 *
 * <p>Accepted per column type: numbers for INTEGER / BIGINT (integral, in range), DOUBLE (any
 * number), DECIMAL (any number, rounded half up to the scale); {@code true}/{@code false} for
 * BOOLEAN; any scalar for VARCHAR (its text); strings for DATE ({@code YYYY-MM-DD}) and TIMESTAMP
 * (see {@link TextValues}), or a number of milliseconds since the epoch for TIMESTAMP. A string for
 * a number or boolean column is read as its text would be in CSV. {@code null} and missing keys are
 * NULL; unknown keys are skipped; a key given twice, an array or object for a column, or anything
 * but one object is an error.
 */
final class JsonValueDecoder extends ValueDecoder {
  private final JsonFactory factory = new JsonFactory();
  private final Map<String, Integer> columns = new HashMap<>();
  private final int[] seenInRow; // row + 1 of the last row that wrote each column

  JsonValueDecoder(Schema schema) {
    super(schema);
    for (int c = 0; c < names.length; c++) {
      columns.put(names[c], c);
    }
    seenInRow = new int[names.length];
  }

  @Override
  void decode(byte[] value, int row) throws BadValue {
    if (row == 0) {
      Arrays.fill(seenInRow, 0); // a new batch
    }
    int column = -1;
    try (JsonParser parser = factory.createParser(value)) {
      if (parser.nextToken() != JsonToken.START_OBJECT) {
        throw new BadValue(-1, "the value is not a JSON object");
      }
      JsonToken token;
      while ((token = parser.nextToken()) == JsonToken.FIELD_NAME) {
        Integer index = columns.get(parser.currentName());
        JsonToken valueToken = parser.nextToken();
        if (index == null) {
          parser.skipChildren();
          continue;
        }
        column = index;
        if (seenInRow[column] == row + 1) {
          throw new BadValue(column, "the key appears twice");
        }
        seenInRow[column] = row + 1;
        write(column, row, valueToken, parser);
        column = -1;
      }
      if (token != JsonToken.END_OBJECT || parser.nextToken() != null) {
        throw new BadValue(-1, "the value is not one JSON object");
      }
    } catch (JsonProcessingException e) {
      throw new BadValue(column, "invalid JSON: " + e.getOriginalMessage());
    } catch (IOException e) {
      throw new BadValue(column, "unreadable JSON: " + e.getMessage());
    }
    checkNotNull(row);
  }

  private void write(int c, int row, JsonToken token, JsonParser parser)
      throws BadValue, IOException {
    if (token == JsonToken.VALUE_NULL) {
      return; // the vector's slot stays NULL
    }
    if (token == JsonToken.START_OBJECT || token == JsonToken.START_ARRAY) {
      throw new BadValue(
          c,
          "an "
              + (token == JsonToken.START_OBJECT ? "object" : "array")
              + " cannot be read as "
              + kinds[c]);
    }
    if (token == JsonToken.VALUE_STRING && kinds[c] != Kind.VARCHAR) {
      String text = parser.getText();
      fromText(c, row, text, 0, text.length());
      return;
    }
    switch (kinds[c]) {
      case INTEGER -> {
        if (token != JsonToken.VALUE_NUMBER_INT
            || parser.getNumberType() != JsonParser.NumberType.INT) {
          throw notA(c, parser);
        }
        ((IntVector) vectors[c]).setSafe(row, parser.getIntValue());
      }
      case BIGINT -> {
        if (token != JsonToken.VALUE_NUMBER_INT
            || parser.getNumberType() == JsonParser.NumberType.BIG_INTEGER) {
          throw notA(c, parser);
        }
        ((BigIntVector) vectors[c]).setSafe(row, parser.getLongValue());
      }
      case DOUBLE -> {
        if (!token.isNumeric()) {
          throw notA(c, parser);
        }
        setDouble(c, row, parser.getDoubleValue());
      }
      case DECIMAL -> {
        if (!token.isNumeric()) {
          throw notA(c, parser);
        }
        setDecimal(c, row, parser.getDecimalValue());
      }
      case BOOLEAN -> {
        if (!token.isBoolean()) {
          throw notA(c, parser);
        }
        setBoolean(c, row, token == JsonToken.VALUE_TRUE);
      }
      case TIMESTAMP -> {
        if (token != JsonToken.VALUE_NUMBER_INT
            || parser.getNumberType() == JsonParser.NumberType.BIG_INTEGER) {
          throw notA(c, parser);
        }
        ((TimeStampMicroVector) vectors[c])
            .setSafe(row, TextValues.millisToMicros(parser.getLongValue(), c));
      }
      case VARCHAR -> {
        byte[] bytes = parser.getText().getBytes(StandardCharsets.UTF_8);
        setText(c, row, bytes, 0, bytes.length);
      }
      case DATE -> throw notA(c, parser);
    }
  }

  private BadValue notA(int c, JsonParser parser) throws IOException {
    String text = parser.getText();
    return TextValues.notA(text, 0, text.length(), c, kinds[c].name());
  }
}
