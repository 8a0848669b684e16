-- Nexmark q2 as nexmark-flink (github.com/nexmark/nexmark, nexmark-flink/src/main/resources/queries/q2.sql)
-- writes it; NexmarkQuery points the blackhole sink at the counting sink.
CREATE TABLE nexmark_q2 (
  auction  BIGINT,
  price  BIGINT
) WITH (
  'connector' = 'blackhole'
);

INSERT INTO nexmark_q2
SELECT auction, price FROM bid WHERE MOD(auction, 123) = 0;
