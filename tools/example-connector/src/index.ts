/** The example connector's shop, for the end-to-end tests that run its handler in process (main.ts is its command). */
export { SAMPLE_CUSTOMERS, type SampleCustomer, schemaName, setupShop, SHOP_CATEGORIES, shopHandler, type ShopHandlerOptions } from './shop';
