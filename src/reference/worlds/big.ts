/**
 * The big world: a copy of production, tens of thousands of customers spread over years of sign-ups, before
 * and after the seeded ones, about 4 % of them known by phone alone (no name, email or company: the spec
 * does not say which customer fields are required). Added with one sort, so 50,000 take well under a second.
 */
import type { Prng } from '../prng.js';
import type { CustomerInput, Store } from '../store.js';

const FIRST = [
  'Amira',
  'Bjorn',
  'Chen',
  'Dalia',
  'Emeka',
  'Freya',
  'Goran',
  'Hana',
  'Ines',
  'Jonas',
  'Kofi',
  'Lena',
  'Mateo',
  'Noor',
  'Oskar',
  'Priya',
];
const LAST = [
  'Andersen',
  'Bauer',
  'Costa',
  'Dubois',
  'Eriksen',
  'Fischer',
  'Garcia',
  'Haddad',
  'Ivanova',
  'Jensen',
  'Kowalski',
  'Larsen',
  'Moreau',
  'Nakamura',
];
const COMPANIES = ['Northwind', 'Contoso', 'Fabrikam', 'Tailspin Toys', 'Litware', 'Proseware', 'Adatum', 'Wide World Importers'];
/** Production sign-ups span these years, so the copied customers sit before and after the seeded ones. */
const FROM = Date.UTC(2019, 0, 1);
const TO = Date.UTC(2025, 6, 1);
/** The share of customers known by phone alone. */
export const PHONE_ONLY_SHARE = 0.04;

/** Adds `count` production-like customers to the store, drawn from `rng`. */
export function seedBig(store: Store, rng: Prng, count: number): void {
  const inputs: CustomerInput[] = new Array<CustomerInput>(count);
  for (let i = 0; i < count; i++) {
    const n = String(i + 1).padStart(6, '0');
    const createdAt = FROM + Math.floor(rng.next() * (TO - FROM));
    const phone = `+4917${String(10_000_000 + i)}`;
    if (rng.next() < PHONE_ONLY_SHARE) {
      inputs[i] = { name: null, email: null, phone, createdAt, identities: [{ type: 'phone', identifier: phone }] };
      continue;
    }
    const first = rng.pick(FIRST);
    const last = rng.pick(LAST);
    inputs[i] = {
      name: `${first} ${last}`,
      email: `${first.toLowerCase()}.${last.toLowerCase()}.p${n}@example.org`,
      company: rng.next() < 0.6 ? rng.pick(COMPANIES) : undefined,
      // most production customers came from a CRM and carry its id
      externalId: rng.next() < 0.7 ? `crm_${n}` : undefined,
      phone: rng.next() < 0.5 ? phone : undefined,
      createdAt,
    };
  }
  store.addCustomers(inputs);
}
