// GCP Client Library and Helpers
//

export * from './context';
export * from './api';
export * from './dataplex';
