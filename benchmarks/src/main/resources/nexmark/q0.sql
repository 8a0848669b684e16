-- Nexmark q0 as nexmark-flink (github.com/nexmark/nexmark, nexmark-flink/src/main/resources/queries/q0.sql)
-- writes it; NexmarkQuery points the blackhole sink at the counting sink.
CREATE TABLE nexmark_q0 (
  auction  BIGINT,
  bidder  BIGINT,
  price  BIGINT,
  `dateTime`  TIMESTAMP(3),
  extra  VARCHAR
) WITH (
  'connector' = 'blackhole'
);

INSERT INTO nexmark_q0
SELECT auction, bidder, price, `dateTime`, extra FROM bid;
