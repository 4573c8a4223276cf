// The demo catalog `npm run up` installs, so a new user sees real event types with schemas (one
// with its own example, the others with examples derived from the schema) and a deprecated one.
export type DemoEventType = {
  name: string;
  description: string;
  schemas: Record<string, Record<string, unknown>>;
  deprecated?: boolean;
};

export const DEMO_EVENT_TYPES: DemoEventType[] = [
  {
    name: "order.created",
    description: "A customer placed an order.",
    schemas: {
      "1": {
        type: "object",
        required: ["order_id", "amount", "currency"],
        properties: {
          order_id: { type: "string", examples: ["ord_xyz789"] },
          amount: { type: "integer", description: "Minor units", examples: [9999] },
          currency: { type: "string", examples: ["EUR"] },
          customer_id: { type: "string", examples: ["cus_001"] },
        },
      },
    },
  },
  {
    name: "order.paid",
    description: "An order's payment succeeded; ship it.",
    schemas: {
      "1": {
        type: "object",
        required: ["order_id", "amount", "paid_at"],
        properties: {
          order_id: { type: "string", examples: ["ord_xyz789"] },
          amount: { type: "integer", examples: [9999] },
          currency: { type: "string", examples: ["EUR"] },
          paid_at: { type: "string", format: "date-time" },
        },
      },
    },
  },
  {
    name: "invoice.created",
    description: "An invoice was issued.",
    schemas: {
      "1": {
        type: "object",
        properties: {
          invoice_id: { type: "string", examples: ["inv_2026_0042"] },
          total: { type: "integer", examples: [12000] },
          due_date: { type: "string", format: "date" },
        },
      },
    },
  },
  {
    name: "customer.updated",
    description: "A customer's profile changed; `previous` carries the old values.",
    schemas: {
      "1": {
        type: "object",
        properties: {
          customer_id: { type: "string", examples: ["cus_001"] },
          email: { type: "string", format: "email" },
        },
      },
    },
  },
  {
    name: "order.shipped",
    description: "An order left the warehouse; `tracking_url` is live.",
    schemas: {
      "1": {
        type: "object",
        required: ["order_id", "carrier"],
        properties: {
          order_id: { type: "string" },
          carrier: { type: "string", enum: ["dhl", "ups", "la_poste"] },
          tracking_url: { type: "string", format: "uri" },
          items: { type: "array", items: { type: "object", properties: { sku: { type: "string" }, qty: { type: "integer", minimum: 1 } } } },
        },
        examples: [
          {
            order_id: "ord_xyz789",
            carrier: "dhl",
            tracking_url: "https://track.example.com/JD014600003",
            items: [{ sku: "MUG-BLUE", qty: 2 }],
          },
        ],
      },
    },
  },
  {
    name: "order.updated",
    description: "Deprecated: use order.paid and order.shipped, which say what changed.",
    deprecated: true,
    schemas: { "1": { type: "object", properties: { order_id: { type: "string" }, status: { type: "string", enum: ["paid", "shipped"] } } } },
  },
];
