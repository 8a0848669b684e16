package dev.quiver.flink.kafka;

import org.apache.flink.api.common.typeinfo.TypeHint;
import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.connector.kafka.source.reader.deserializer.KafkaRecordDeserializationSchema;
import org.apache.flink.util.Collector;
import org.apache.kafka.clients.consumer.ConsumerRecord;

/**
 * Hands Kafka's records on as they are: {@link KafkaBatchReader} decodes them into batches. They
 * never leave the reader, so their type information is never used to serialize anything.
 */
final class RawRecords implements KafkaRecordDeserializationSchema<ConsumerRecord<byte[], byte[]>> {
  private static final long serialVersionUID = 1L;

  @Override
  public void deserialize(
      ConsumerRecord<byte[], byte[]> record, Collector<ConsumerRecord<byte[], byte[]>> out) {
    out.collect(record);
  }

  @Override
  public TypeInformation<ConsumerRecord<byte[], byte[]>> getProducedType() {
    return TypeInformation.of(new TypeHint<ConsumerRecord<byte[], byte[]>>() {});
  }
}
