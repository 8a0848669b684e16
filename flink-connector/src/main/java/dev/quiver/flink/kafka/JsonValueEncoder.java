package dev.quiver.flink.kafka;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.StreamWriteFeature;
import java.io.IOException;
import java.io.UncheckedIOException;
import org.apache.arrow.vector.BigIntVector;
import org.apache.arrow.vector.BitVector;
import org.apache.arrow.vector.Float8Vector;
import org.apache.arrow.vector.IntVector;
import org.apache.arrow.vector.types.pojo.Schema;

/**
 * Encodes a row as one JSON object, as {@link JsonValueDecoder} reads it: every column a key in
 * schema order, NULL as {@code null}; numbers and booleans as JSON numbers and booleans (a DECIMAL
 * plain, a NaN or infinite DOUBLE as its name in a string, which the decoder reads as text);
 * VARCHAR, DATE and TIMESTAMP as strings ({@link ValueEncoder} gives their forms).
 */
final class JsonValueEncoder extends ValueEncoder {
  private final JsonFactory factory =
      JsonFactory.builder().enable(StreamWriteFeature.WRITE_BIGDECIMAL_AS_PLAIN).build();

  JsonValueEncoder(Schema schema) {
    super(schema);
  }

  @Override
  byte[] encode(int row) {
    out.reset();
    try (JsonGenerator json = factory.createGenerator(out)) {
      json.writeStartObject();
      for (int c = 0; c < kinds.length; c++) {
        json.writeFieldName(names[c]);
        if (vectors[c].isNull(row)) {
          json.writeNull();
          continue;
        }
        switch (kinds[c]) {
          case INTEGER -> json.writeNumber(((IntVector) vectors[c]).get(row));
          case BIGINT -> json.writeNumber(((BigIntVector) vectors[c]).get(row));
          case DOUBLE -> json.writeNumber(((Float8Vector) vectors[c]).get(row));
          case DECIMAL -> json.writeNumber(decimal(c, row));
          case BOOLEAN -> json.writeBoolean(((BitVector) vectors[c]).get(row) != 0);
          case VARCHAR -> {
            byte[] utf8 = utf8(c, row);
            json.writeUTF8String(utf8, 0, utf8.length);
          }
          case DATE, TIMESTAMP -> json.writeString(text(c, row).toString());
        }
      }
      json.writeEndObject();
    } catch (IOException e) {
      throw new UncheckedIOException("cannot encode a row as JSON", e); // in memory: never
    }
    return out.toByteArray();
  }
}
