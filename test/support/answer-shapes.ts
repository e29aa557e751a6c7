import { DEMO_FIXTURES } from '../../sandbox';

// Answers of the service's exact shape (loyalty-api.md), for stub services that vary one thing.

const { layla } = DEMO_FIXTURES;

export const CARD = {
  id: '2b7e1f0c-1111-4aaa-8bbb-000000000001',
  serial_number: 'CC-0001',
  status: 'active',
  program: { id: '2b7e1f0c-2222-4aaa-8bbb-000000000002', name: 'Coffee Club', type: 'point' },
  visits: 3,
  points: 120,
  spent: 45,
};
export const REWARD = {
  code: 'RW-SHAPE001',
  status: 'available',
  name: 'Free coffee',
  description: null,
  type: 'product',
  allowed_products: { quantity: 1, products_list: ['2b7e1f0c-3333-4aaa-8bbb-000000000003'] },
  customer_id: layla.id,
  earned_at: '2026-11-01T09:00:00+03:00',
  expires_at: null,
  redeemed_at: null,
};
export const CUSTOMER = {
  id: layla.id,
  name: 'Layla Shape',
  phone: '+966 50 123 4567',
  email: 'layla@example.com',
  birthday: null,
  status: 'active',
  cards: [CARD],
  created_at: '2026-01-01T09:00:00+03:00',
  last_visit_at: null,
};
